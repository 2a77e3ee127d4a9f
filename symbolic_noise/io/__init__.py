"""Rendering and the command line: text, JSON and LaTeX reports, tables and
certified grids, Jupyter display, figures and atlases, and the CLI.

This layer prints and reads files; the layers below it never do.
"""
