"""Every public name the API reference's user pages document has a description.

The user pages (``docs/api/*.md``, not ``docs/api/internals/``) name the
modules and objects they document with autodoc directives; this test reads
those directives and imports the modules (no Sphinx needed).  A name is
*described* when it has a docstring of its own (a method may inherit its
base's, as autodoc shows it), or, for an attribute or a dataclass or
named-tuple field, a ``#:`` comment or a string right after it, or for a
slot, its docstring in a ``__slots__`` dict (what autodoc reads).  The docstrings Python writes itself (a dataclass's signature,
"Alias for field number 0") do not count.

``python tests/test_api_reference.py`` prints the counts of the user pages and
of the internals pages, with the names that have no description.
"""

import ast
import dataclasses
import importlib
import inspect
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"

_DIRECTIVE = re.compile(r"^\.\. (automodule|autofunction|autoclass|autodata):: (\S+)\n((?:   :.*\n)*)", re.M)
_FIELD = re.compile(r"^Alias for field number \d+$")


def directives(page: Path):
    """``(kind, name, options)`` of every autodoc directive of a page."""
    out = []
    for kind, name, opts in _DIRECTIVE.findall(page.read_text(encoding="utf-8")):
        options = {}
        for line in opts.splitlines():
            key, _, value = line.strip()[1:].partition(":")
            options[key] = [v.strip() for v in value.split(",") if v.strip()]
        out.append((kind, name, options))
    return out


def _described(text, owner: str | None = None) -> bool:
    """A docstring that is not empty nor one Python wrote: a named-tuple field's
    "Alias for field number 0", a class's signature ``Owner(a, b)``."""
    text = (text or "").strip()
    if owner is not None and text.startswith(owner + "(") and text.endswith(")") and "\n" not in text:
        return False
    return bool(text) and not _FIELD.match(text)


def _class_node(cls):
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return None, []
    return ast.parse(source).body[0], source.splitlines()


def _assigned(stmt, in_init: bool) -> list:
    """The names a class-body statement (or an ``__init__`` statement, ``self.name``) assigns."""
    targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else stmt.targets if isinstance(stmt, ast.Assign) else []
    if in_init:
        return [t.attr for t in targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                and t.value.id == "self"]
    return [t.id for t in targets if isinstance(t, ast.Name)]


def attribute_docs(cls) -> set:
    """Names of the attributes, in the class body or set on ``self`` in
    ``__init__``, that carry a ``#:`` comment or a string right after them (as
    Sphinx's source analyser finds them)."""
    node, lines = _class_node(cls)
    if node is None:
        return set()
    init = [f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"]
    documented = set()
    for body, in_init in [(node.body, False)] + [(f.body, True) for f in init]:
        for i, stmt in enumerate(body):
            names = _assigned(stmt, in_init)
            if not names:
                continue
            here = "#:" in lines[stmt.lineno - 1]
            above = stmt.lineno >= 2 and lines[stmt.lineno - 2].strip().startswith("#:")
            after = i + 1 < len(body) and isinstance(body[i + 1], ast.Expr) and \
                isinstance(body[i + 1].value, ast.Constant) and isinstance(body[i + 1].value.value, str)
            if here or above or after:
                documented.update(names)
    return documented


def init_attributes(cls) -> set:
    """The public attributes ``__init__`` sets on ``self`` with an annotation
    (``self.polys: list = []``), which autodoc lists as members."""
    node, _ = _class_node(cls)
    if node is None:
        return set()
    return {name for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"
            for stmt in ast.walk(f) if isinstance(stmt, ast.AnnAssign)
            for name in _assigned(stmt, True) if not name.startswith("_")}


def class_members(cls):
    """``(name, described)`` of the public members autodoc shows for ``cls``:
    its own methods, properties and attributes, and its fields.  An attribute
    that a base class describes (``name = "binary"`` under ``Channel.name``)
    keeps the base's description, as a method keeps its docstring."""
    documented = set()
    for klass in cls.__mro__:
        if klass.__module__.startswith("symbolic_noise"):
            documented |= attribute_docs(klass)
            slots = vars(klass).get("__slots__")
            if isinstance(slots, dict):  # ``__slots__ = {name: docstring}``, as autodoc and help() read it
                documented |= {name for name, doc in slots.items() if _described(doc)}
    members = {}
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if inspect.isfunction(value):
            doc = value.__doc__ or next((getattr(base.__dict__[name], "__doc__", None) for base in cls.__mro__[1:]
                                         if name in base.__dict__ and getattr(base.__dict__[name], "__doc__", None)), None)
            members[name] = _described(doc) or name in documented
        elif isinstance(value, property) or type(value).__name__ == "cached_property":
            members[name] = _described(value.__doc__) or name in documented
        elif inspect.isclass(value):
            members[name] = _described(vars(value).get("__doc__"), value.__name__) or name in documented
        else:  # a class attribute, a named-tuple field, a slot
            members[name] = name in documented
    fields = set(getattr(cls, "_fields", ()))
    if dataclasses.is_dataclass(cls):
        fields |= {f.name for f in dataclasses.fields(cls)}
    for name in fields | init_attributes(cls):
        if not name.startswith("_"):
            members.setdefault(name, name in documented)
            members[name] = members[name] or name in documented
    return members


def public_names(module, exclude=()):
    """The public names autodoc's ``automodule`` documents: ``__all__`` when
    the module has one, else its own functions and classes."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items()
                 if (inspect.isfunction(v) or inspect.isclass(v)) and v.__module__ == module.__name__]
    return [n for n in names if not n.startswith("_") and n not in exclude
            and getattr(getattr(module, n), "__module__", module.__name__) == module.__name__]


def _object(dotted):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _entry(dotted, obj):
    if inspect.isclass(obj):
        out = [(dotted, _described(vars(obj).get("__doc__"), obj.__name__))]
    else:
        out = [(dotted, _described(obj.__doc__))]
    if inspect.isclass(obj) and not issubclass(obj, BaseException):
        out += [(f"{dotted}.{m}", ok) for m, ok in class_members(obj).items()]
    return out


def documented(pages):
    """``(dotted name, described)`` for every name the pages document, and the objects."""
    entries, objects = [], []
    for page in pages:
        for kind, name, options in directives(page):
            if kind == "automodule":
                module = importlib.import_module(name)
                entries.append((name, _described(module.__doc__)))
                if "no-members" in options:
                    continue
                for n in public_names(module, exclude=options.get("exclude-members", ())):
                    entries += _entry(f"{name}.{n}", getattr(module, n))
                    objects.append(getattr(module, n))
            else:
                obj = _object(name)
                entries += _entry(name, obj)
                objects.append(obj)
    return entries, objects


def user_pages():
    return sorted(API.glob("*.md"))


def internal_pages():
    return sorted((API / "internals").glob("*.md"))


def test_every_name_on_the_user_pages_is_described():
    entries, _ = documented(user_pages())
    assert len(entries) > 500
    assert [name for name, ok in entries if not ok] == []


def test_the_package_namespace_is_on_the_user_pages():
    """What ``from symbolic_noise import *`` gives is documented for the user."""
    import symbolic_noise

    _, objects = documented(user_pages())
    ids = {id(o) for o in objects}
    missing = [n for n in symbolic_noise.__all__ if id(getattr(symbolic_noise, n)) not in ids]
    assert missing == []


_CODE = re.compile(r"``.*?``|:\w+:`[^`]*`|`[^`]*`")


def test_attribute_comments_have_no_type_colon():
    """Napoleon reads ``#: text: more`` as the type ``text``; a ``#:`` comment's
    first line keeps colons inside code only."""
    modules = set()
    for page in user_pages():
        for kind, name, _ in directives(page):
            modules.add(name if kind == "automodule" else name.rpartition(".")[0])
    bad = []
    for name in sorted(modules):
        lines = Path(importlib.import_module(name).__file__).read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            head, sep, text = line.partition("#:")
            if not sep or (not head.strip() and lines[i - 1].strip().startswith("#:")):
                continue  # a continuation line
            if re.search(r":(\s|$)", _CODE.sub("", text)):
                bad.append(f"{name}:{i + 1}: {text.strip()}")
    _, objects = documented(user_pages())
    for cls in filter(inspect.isclass, objects):  # a property's docstring is read the same way
        for attr, value in vars(cls).items():
            first = (getattr(value, "__doc__", None) or "").strip().split("\n")[0]
            if isinstance(value, property) and re.search(r":(\s|$)", _CODE.sub("", first)):
                bad.append(f"{cls.__qualname__}.{attr}: {first}")
    assert bad == []


def test_pages_name_modules_that_exist():
    for page in user_pages() + internal_pages():
        for kind, name, _ in directives(page):
            assert (importlib.import_module(name) if kind == "automodule" else _object(name)) is not None


def test_the_reference_pages_examples_run():
    """The ``>>>`` examples of the reference's own pages are doctests too."""
    import doctest

    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    examples = 0
    for page in [API.parent / "api.md", *user_pages(), *internal_pages()]:
        for block in re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S):
            test = parser.get_doctest(block, {}, page.name, str(page), 0)
            examples += len(test.examples)
            runner.run(test)
    assert examples >= 3 and runner.failures == 0


def test_attribute_comments_are_found():
    """The check reads ``#:`` comments and strings after fields, as autodoc does."""
    from symbolic_noise.solvers.solution import PointResult

    assert {"p", "value", "optimal"} <= attribute_docs(PointResult)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for title, pages in (("user pages", user_pages()), ("internals", internal_pages())):
        entries, _ = documented(pages)
        missing = [name for name, ok in entries if not ok]
        print(f"{title}: {len(entries)} names, {len(missing)} without a description")
        for name in missing:
            print("   ", name)
