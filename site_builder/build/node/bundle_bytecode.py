"""Run by bytecode.mjs inside the pinned Pyodide: a bundle's Python files compiled to bytecode.

Not imported by the build: Node.js reads this file and runs it in Pyodide, so the bytecode is the
pages' own Python 3.14's.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import marshal
import zipfile

__all__ = ["compile_bundle", "without_docstrings"]


def without_docstrings(source: bytes) -> ast.Module:
    """Return the module's tree without its docstrings and its functions' annotations: the pages read neither.

    Only these go, not asserts (what `-OO` would also drop): a body left empty keeps a `pass`.

    >>> source = b"'Doc.'\\ndef f(x: int) -> int:\\n    'Doc.'\\nclass C:\\n    'Doc.'\\n    x: int = 1\\n"
    >>> tree = without_docstrings(source)
    >>> print(ast.unparse(tree))
    def f(x):
        pass
    <BLANKLINE>
    class C:
        x: int = 1
    """
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            # A function's annotations are for mypy; nothing in the pages reads them. (A class's stay:
            # dataclasses find their fields by them.)
            node.returns = None
            for argument in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                             node.args.vararg, node.args.kwarg):  # fmt: skip
                if argument is not None:
                    argument.annotation = None
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                if isinstance(first.value.value, str):
                    node.body = node.body[1:] or [ast.Pass()]
    return ast.fix_missing_locations(tree)


def compile_bundle(data: bytes | memoryview) -> bytes:
    """Return the zip `data` with each `name.py` replaced by `name.pyc` (sourceless), deterministically."""
    source = zipfile.ZipFile(io.BytesIO(bytes(data)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for info in source.infolist():
            body, name = source.read(info), info.filename
            if name.endswith(".py"):
                code = compile(without_docstrings(body), "/app/" + name, "exec", dont_inherit=True)
                body, name = importlib.util.MAGIC_NUMBER + b"\x00" * 12 + marshal.dumps(code), name + "c"
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, body, compresslevel=9)
    return buffer.getvalue()
