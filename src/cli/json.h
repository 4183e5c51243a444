// A small streaming JSON writer for `bench --json`: it places commas and escapes strings, so the
// caller only states structure. Non-finite numbers become null (JSON has no NaN or infinity).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace flashattn::cli {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(const std::string& name);

  void value(double x);
  void value(int64_t x);
  void value(uint64_t x);
  void value(int x) { value(int64_t(x)); }
  void value(bool x);
  void value(const std::string& s);
  void value(const char* s) { value(std::string(s)); }
  void null();

  template <typename T>
  void field(const std::string& name, const T& x) {
    key(name);
    value(x);
  }
  void field(const std::string& name, const std::vector<double>& xs) {
    key(name);
    begin_array();
    for (double x : xs) value(x);
    end_array();
  }

 private:
  void separate();

  std::ostream& out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace flashattn::cli
