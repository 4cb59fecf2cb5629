#include "app/cli_output.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace articula {

void write_output(const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (path.empty()) {
    write(std::cout);
    return;
  }
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  try {
    std::ofstream out(tmp);
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
    write(out);
    out.close();
    if (!out) throw std::runtime_error("error while writing '" + path + "'");
    std::filesystem::rename(tmp, path);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
}

}  // namespace articula
