# The `similarity` part of the workflow (config section `similarity:`).
