// The one error type of the library. Every rejected argument raises it, naming the argument and
// the rule it broke; when it is raised, no output has been written.
#pragma once

#include <stdexcept>
#include <string>

namespace flashattn {

class Error : public std::invalid_argument {
 public:
  Error(std::string argument, std::string rule)
      : std::invalid_argument("flashattn: argument '" + argument + "': " + rule),
        argument_(std::move(argument)),
        rule_(std::move(rule)) {}

  // The name of the offending argument, e.g. "q", "cu_seqlens_k", "window_left".
  const std::string& argument() const { return argument_; }
  // The rule it broke, in words.
  const std::string& rule() const { return rule_; }

 private:
  std::string argument_;
  std::string rule_;
};

}  // namespace flashattn
