#include "project.hpp"

namespace articula::py {

Project::Project(LoadResult loaded, std::string path_)
    : path(std::move(path_)), warnings(std::move(loaded.warnings)), doc_(std::move(loaded.spec)) {}

Project Project::load(const std::string& path, bool restore_floating) {
  return Project(load_project(path, LoadOptions{.restore_floating = restore_floating}), path);
}

Project Project::parse(const std::string& text, bool restore_floating) {
  return Project(parse_project(text, LoadOptions{.restore_floating = restore_floating}));
}

void Project::apply(Edit edit) {
  if (edit.empty()) return;
  doc_.apply(edit);
  done_.push_back(std::move(edit));
  undone_.clear();
}

bool Project::undo() {
  if (done_.empty()) return false;
  doc_.revert(done_.back());
  undone_.push_back(std::move(done_.back()));
  done_.pop_back();
  return true;
}

bool Project::redo() {
  if (undone_.empty()) return false;
  doc_.apply(undone_.back());
  done_.push_back(std::move(undone_.back()));
  undone_.pop_back();
  return true;
}

std::vector<std::string> Project::undo_labels() const {
  std::vector<std::string> out;
  for (const Edit& e : done_) out.push_back(e.label);
  return out;
}

std::vector<std::string> Project::redo_labels() const {
  std::vector<std::string> out;
  for (auto it = undone_.rbegin(); it != undone_.rend(); ++it) out.push_back(it->label);
  return out;
}

std::shared_ptr<const Mechanism> Project::mechanism() const {
  if (!mech_ || mech_revision_ != doc_.revision()) {
    mech_ = std::make_shared<const Mechanism>(prepare_project(doc_.spec()));
    mech_revision_ = doc_.revision();
  }
  return mech_;
}

void Project::save(const std::string& file) {
  save_project(doc_.spec(), file);
  path = file;
}

}  // namespace articula::py
