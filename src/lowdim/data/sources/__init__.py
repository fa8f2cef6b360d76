"""One module per family of datasets; each registers its datasets on import.

Add a dataset by adding (or extending) a module here: no other file needs to
change for the registry, the config validation and the workflow to know it.
"""
