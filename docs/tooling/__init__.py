"""Tools that write the generated blocks of ``README.md`` and ``docs/``: not the library.

Each block sits between two markers (``<!-- name:start -->`` and ``<!-- name:end -->``)
and is rewritten whole by a script from stored output: the gallery and the scorecard
section from a finished run (``docs/update_gallery.py``), every run size, run time and
speed ratio from the stored benchmark measurements (``docs/update_numbers.py``). The tests
regenerate each block and compare it with the file.
"""
