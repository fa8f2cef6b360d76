# The `sms_tasks` part of the workflow (config section `sms_tasks:`).
