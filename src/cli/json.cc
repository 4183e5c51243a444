// JsonWriter: numbers with 10 significant digits, strings escaped per RFC 8259.
#include "cli/json.h"

#include <cmath>
#include <cstdio>

namespace flashattn::cli {

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ << ",";
    first_.back() = false;
  }
}

void JsonWriter::begin_object() {
  separate();
  out_ << "{";
  first_.push_back(true);
}

void JsonWriter::end_object() {
  first_.pop_back();
  out_ << "}";
}

void JsonWriter::begin_array() {
  separate();
  out_ << "[";
  first_.push_back(true);
}

void JsonWriter::end_array() {
  first_.pop_back();
  out_ << "]";
}

void JsonWriter::key(const std::string& name) {
  value(name);
  out_ << ":";
  after_key_ = true;
}

void JsonWriter::value(double x) {
  separate();
  if (!std::isfinite(x)) {
    out_ << "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.10g", x);
  out_ << buf;
}

void JsonWriter::value(int64_t x) {
  separate();
  out_ << x;
}

void JsonWriter::value(uint64_t x) {
  separate();
  out_ << x;
}

void JsonWriter::value(bool x) {
  separate();
  out_ << (x ? "true" : "false");
}

void JsonWriter::null() {
  separate();
  out_ << "null";
}

void JsonWriter::value(const std::string& s) {
  separate();
  out_ << '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out_ << "\\\""; break;
      case '\\': out_ << "\\\\"; break;
      case '\n': out_ << "\\n"; break;
      case '\r': out_ << "\\r"; break;
      case '\t': out_ << "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out_ << buf;
        } else {
          out_ << c;
        }
    }
  }
  out_ << '"';
}

}  // namespace flashattn::cli
