"""Leaves of a JSON document by path, for the tests that change certificates
(tests/test_certificate_forgery.py, tests/test_hybrid_forged.py)."""


def leaf_paths(x, prefix=()):
    """Every leaf of a JSON document, as a path of keys and indices."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield from leaf_paths(v, prefix + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from leaf_paths(v, prefix + (i,))
    else:
        yield prefix


def set_leaf(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def get_leaf(doc, path):
    for k in path:
        doc = doc[k]
    return doc
