"""The compiled move generator (cribtiles/rules/_movegen.c) as an optional C extension.

Everything else is in pyproject.toml. `optional=True`: where no C compiler works, the install still
succeeds (with a warning) and the game uses the pure-Python generator; `cribtiles --version` says which.
setuptools' scratch files go to build/scratch/ (ignored by git), away from build/'s own files.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[Extension("cribtiles.rules._movegen", sources=["cribtiles/rules/_movegen.c"], optional=True)],
    options={"build": {"build_base": "build/scratch/setuptools"}},
)
