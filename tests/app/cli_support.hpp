#pragma once
// Running articula-cli from tests: a scratch workspace per test case, the captured exit status
// and output, and the CSV it writes read back token by token.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace articula::test {

using nlohmann::json;
namespace fs = std::filesystem;

inline const std::string kCli = ARTICULA_BINARY_DIR "/app/articula-cli";

// A fresh directory per test case, removed afterwards; stdout/stderr are captured outside it so
// that "no output file was created" can be checked by listing it.
struct Workspace {
  fs::path root, dir;
  Workspace() {
    static int counter = 0;
    root = fs::temp_directory_path() /
           ("articula_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
    dir = root / "work";
    fs::create_directories(dir);
  }
  ~Workspace() { fs::remove_all(root); }
  std::string write(const std::string& name, const json& doc) const {
    std::ofstream(dir / name) << doc.dump(2);
    return (dir / name).string();
  }
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Run {
  int status = -1;
  std::string out, err;
};
inline Run cli(const Workspace& ws, const std::string& args) {
  const fs::path out = ws.root / "stdout.txt", err = ws.root / "stderr.txt";
  const std::string cmd =
      "'" + kCli + "' " + args + " > '" + out.string() + "' 2> '" + err.string() + "'";
  const int rc = std::system(cmd.c_str());
  Run r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> text;  // tokens as written
  std::vector<std::vector<double>> rows;
  double at(std::size_t r, const std::string& col) const {
    const auto it = std::find(header.begin(), header.end(), col);
    REQUIRE(it != header.end());
    return rows[r][it - header.begin()];
  }
};
inline Csv parse_csv(const std::string& s) {
  Csv csv;
  std::istringstream in(s);
  std::string line;
  auto split = [](const std::string& l) {
    std::vector<std::string> out;
    std::stringstream ss(l);
    for (std::string tok; std::getline(ss, tok, ',');) out.push_back(tok);
    return out;
  };
  REQUIRE(std::getline(in, line));
  csv.header = split(line);
  while (std::getline(in, line)) {
    csv.text.push_back(split(line));
    REQUIRE(csv.text.back().size() == csv.header.size());
    std::vector<double> row;
    for (const std::string& tok : csv.text.back()) {
      char* end = nullptr;
      row.push_back(std::strtod(tok.c_str(), &end));
      REQUIRE(end == tok.c_str() + tok.size());  // the whole token is one number
    }
    csv.rows.push_back(row);
  }
  return csv;
}

}  // namespace articula::test
