# The `cca` part of the workflow (config section `cca:`).
