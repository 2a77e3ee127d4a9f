"""The package version: the single source read by ``pyproject.toml`` (setuptools
``attr:``), by :data:`symbolic_noise.__version__` and by ``symbolic-noise --version``.

>>> from symbolic_noise import __version__
>>> __version__ == VERSION
True
"""

VERSION = "0.2.0.dev0"
__version__ = VERSION
