# The `embedding` part of the workflow (config section `embedding:`).
