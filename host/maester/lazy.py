"""Modules imported when first used, not when the module naming them is: a command's `--help`
(issue 16: at most 0.15 s) then pays nothing for the libraries only its work needs.

    serial = lazy.Module("serial")      # at the top of a command's module
    serial.Serial(port)                 # imports pyserial here, the first time

Unlike importlib.util.LazyLoader this leaves sys.modules alone until the import really happens,
so tests/test_startup.py can tell what a command's start-up imported.
"""

import importlib


class Module:
    """Stands for the module `name`: the first attribute read imports it. Every read is passed on
    to the real module, so a test that patches the module itself is seen here too."""

    def __init__(self, name):
        self.__dict__["_name"] = name
        self.__dict__["_module"] = None

    def __getattr__(self, attr):  # only for names not set on the stand-in itself
        module = self._module
        if module is None:
            module = self.__dict__["_module"] = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self):
        return "<lazy module %r>" % self._name
