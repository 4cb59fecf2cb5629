// The articula Python module (_articula, re-exported by the articula package).
#include "bindings.hpp"
#include "convert.hpp"

PYBIND11_MODULE(_articula, m) {
  m.doc() =
      "Articula: mechanism dynamics (RBDA) from Python. Load or build a project, edit it, "
      "analyse it and simulate it with the same code as articula-cli.";
  articula::py::register_exceptions(m);
  articula::py::bind_spec(m);
  articula::py::bind_simulation(m);
  articula::py::bind_project(m);
  articula::py::bind_templates(m);
  articula::py::bind_fixed_lag(m);
#ifdef ARTICULA_VERSION
  m.attr("__version__") = ARTICULA_VERSION;
#endif
}
