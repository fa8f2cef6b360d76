# The `report` part of the workflow (config section `report:`).
