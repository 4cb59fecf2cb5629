"""The type stubs (python/articula/_articula.pyi) name exactly what the compiled module has, and
everything public in the module has a docstring."""

import ast
import inspect
import pathlib

import articula
from articula import _articula

STUB = pathlib.Path(articula.__file__).with_name("_articula.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    classes, functions = {}, set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            classes[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            functions.add(node.name)
    return classes, functions


def module_names():
    classes, functions = {}, set()
    for name, obj in vars(_articula).items():
        if name.startswith("_"):
            continue
        if inspect.isclass(obj):
            members = {m for m in vars(obj) if not m.startswith("_")}
            if issubclass(obj, BaseException):
                members = {"pointer", "message"} if obj is _articula.ProjectError else set()
            classes[name] = members
        elif callable(obj):
            functions.add(name)
    return classes, functions


def test_the_stub_names_what_the_module_has():
    stub_classes, stub_functions = stub_names()
    classes, functions = module_names()
    assert set(stub_classes) == set(classes)
    assert stub_functions == functions
    for name, members in classes.items():
        assert stub_classes[name] == members, name


def test_everything_public_has_a_docstring():
    missing = []
    for name, obj in vars(_articula).items():
        if name.startswith("_"):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member, value in vars(obj).items():
                if member.startswith("_") or member in ("__init__",):
                    continue
                doc = getattr(value, "__doc__", None) or ""
                # pybind11 puts the signature first; a documented member has text after it
                text = "\n".join(line for line in doc.splitlines() if "(self" not in line)
                if not text.strip():
                    missing.append(f"{name}.{member}")
    assert not missing, f"no docstring: {missing}"
