#pragma once
// What every spec item class of the module has (Body, Joint, Drive, Force, ...): its `extra` dict
// (fields of the file the class does not model, kept through a save), equality and copies.
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>

#include "convert.hpp"

namespace articula::py {

template <class T>
void add_item_common(pybind11::class_<T>& c) {
  c.def_property(
      "extra", [](const T& x) { return to_python(x.extra); },
      [](T& x, pybind11::handle v) { x.extra = from_python(v); },
      "Fields of the file this class does not model (kept through a save), as a dict.");
  c.def(pybind11::self == pybind11::self);
  c.def("__copy__", [](const T& x) { return T(x); });
  c.def("__deepcopy__", [](const T& x, pybind11::handle) { return T(x); });
}

}  // namespace articula::py
