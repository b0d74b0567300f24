"""How maester's wheel is built, beyond what pyproject.toml declares: the data it reads at run time,
and its compiled build.

- The data: a wheel carries what paths.SHIPPED names of the repository's cards_db/, hardware/ and
  firmware/ in maester/data/, where paths.py finds it. An editable install reads the checkout's own.
- The compiled build (compiled.py): Cython compiles the engine, the bots and the rules from the same
  .py source into maester/_compiled/ when this machine can (a C compiler, Python's headers); without
  them, or with MAESTER_PURE=1, one line says the wheel holds the pure build. A wheel reuses the
  modules of a checkout's own build whose source is unchanged, so building it after `make` compiles
  nothing again. An editable install builds into the checkout's host/maester/_compiled/.
"""

import shutil
import sys
from pathlib import Path

from setuptools import Command, setup
from setuptools.command.build import build
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "host"))
from maester import compiled, paths  # noqa: E402  (the source being built, not an installed maester)


class BuildPy(build_py):
    """The package, and in a wheel the data the commands read, in maester/data/."""

    def run(self):
        super().run()
        if self.editable_mode:
            return  # the checkout's folders are read where they are
        data = Path(self.build_lib) / "maester" / "data"
        shutil.rmtree(data, ignore_errors=True)  # an in-tree build's build/lib is reused: no file left from before
        for folder, patterns in paths.SHIPPED.items():
            for pattern in patterns:
                for src in sorted((HERE / folder).glob(pattern)):
                    dst = data / folder / src.relative_to(HERE / folder)
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(src, dst)


class BuildCompiled(Command):
    """The compiled build, or one line saying why the pure build it is."""

    description = "compile the engine, bots and rules with Cython (pure Python when this machine cannot)"
    user_options = []
    editable_mode = False  # set by setuptools for `pip install -e`

    def initialize_options(self):
        self.build_lib = None

    def finalize_options(self):
        self.set_undefined_options("build", ("build_lib", "build_lib"))

    def run(self):
        checkout = compiled.build_dir()
        out = checkout if self.editable_mode else Path(self.build_lib) / "maester" / checkout.name
        compiled.build_or_explain(out, say=lambda line: print(line, flush=True), reuse=checkout)


class Build(build):
    sub_commands = build.sub_commands + [("build_compiled", None)]


class MaybeBinary(Distribution):
    def has_ext_modules(self):
        # A wheel with the compiled build holds extension modules: tag it for this Python and platform.
        return compiled.why_pure() is None


setup(distclass=MaybeBinary, cmdclass={"build": Build, "build_py": BuildPy, "build_compiled": BuildCompiled})
