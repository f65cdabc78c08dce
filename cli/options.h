// Option helpers shared by the commands: unsigned values that reject a
// minus sign, and the resource limits (core/base/limits.h) as options.
//
// boost::program_options reads "-1" into an unsigned as 2^N - 1 (it goes
// through lexical_cast): `--timeout-ms -1` became "no limit" and `--seed -1`
// 18446744073709551615.  unsigned_value<T>() reads digits only:
//
//     ("seed", unsigned_value<std::uint64_t>(1), "random seed")
//     ... vm["seed"].as<Unsigned<std::uint64_t>>().value
//     // mmacheck sim F --seed -1: "error: the argument ('-1') for option
//     //   '--seed' must be a non-negative integer"
#pragma once

#include <charconv>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "core/base/limits.h"

namespace mmacheck::cli {

template <class T>
struct Unsigned {
  T value{};
};

template <class T>
std::ostream& operator<<(std::ostream& os, const Unsigned<T>& u) {
  return os << u.value;
}

// boost::program_options finds this by argument-dependent lookup.
template <class T>
void validate(boost::any& out, const std::vector<std::string>& values, Unsigned<T>*, int) {
  namespace po = boost::program_options;
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    po::error_with_option_name e("the argument ('%value%') for option '%canonical_option%' must be a "
                                 "non-negative integer" +
                                 std::string(ec == std::errc::result_out_of_range ? " that fits in " +
                                                 std::to_string(sizeof(T) * 8) + " bits" : ""));
    e.set_substitute("value", text);
    throw e;
  }
  out = Unsigned<T>{v};
}

template <class T>
boost::program_options::typed_value<Unsigned<T>>* unsigned_value(T default_value) {
  return boost::program_options::value<Unsigned<T>>()->default_value(Unsigned<T>{default_value});
}

template <class T>
T unsigned_option(const boost::program_options::variables_map& vm, const char* name) {
  return vm[name].as<Unsigned<T>>().value;
}

// --max-mma, --max-elements, ... (one per row of kLimits), defaults shown.
boost::program_options::options_description limit_options();
Limits limits_from(const boost::program_options::variables_map& vm);

// Throws the limit's Error when `text` is longer than --max-output-bytes.
void check_output_size(const std::string& text, const Limits& limits, const std::string& what);

}  // namespace mmacheck::cli
