// Typed format options: a format declares each option once, as the C++ value it reads (an
// enum, a number, a flag, a name). The declaration makes the OptionSpec front ends show
// (FormatDescriptor::options) and reads the value from Options with its default applied:
//
//   const ChoiceOption<EulerOrder> kEulerOption{
//       {.name = "euler", .help = "Euler order of rotations", .default_value = "xyz"},
//       {{"xyz", EulerOrder::XYZ}, {"zyx", EulerOrder::ZYX}}};
//   ...  .options = {kEulerOption.spec()}  ...
//   settings.euler = kEulerOption.Get(context.options);
#pragma once

#include <animkit/core/format.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace animkit {

// What every typed declaration shares: its spec and the text Options holds for it.
class DeclaredOption {
 public:
  const OptionSpec& spec() const { return spec_; }

 protected:
  // spec as the declaration gives it (name, help, default, range), of the declaration's type.
  DeclaredOption(OptionSpec spec, OptionType type);
  // The value set in options, else the declared default; nullopt when neither. Checked
  // against the spec (SetOption's error): Options is a plain store anyone can fill.
  std::optional<std::string_view> Text(const Options& options) const;
  // Text() of an option declared with a default; an error for one without (its reader must
  // pass the input's fallback).
  std::string_view DefaultedText(const Options& options) const;
  // The number a checked text holds.
  static double NumberIn(std::string_view text);

 private:
  OptionSpec spec_;
};

// Get(options): the value set, else the declared default. Get(options, fallback): the value
// set, else the declared default, else fallback (for options whose default depends on the input).
template <typename T>
class TypedOption : public DeclaredOption {
 public:
  T Get(const Options& options) const { return ValueOf(DefaultedText(options)); }
  T Get(const Options& options, T fallback) const {
    const std::optional<std::string_view> text = Text(options);
    return text ? ValueOf(*text) : fallback;
  }

 protected:
  using DeclaredOption::DeclaredOption;
  // The value of a text Text() checked.
  virtual T ValueOf(std::string_view text) const = 0;
};

// One of a fixed set of words, each standing for a value of T (usually the format's enum).
// The spec gives name, help and default (one of the words); the choices come from the table.
template <typename T>
class ChoiceOption final : public TypedOption<T> {
 public:
  struct Choice {
    std::string_view text;
    T value;
  };
  ChoiceOption(OptionSpec spec, std::vector<Choice> choices)
      : TypedOption<T>(WithChoices(std::move(spec), choices), OptionType::Choice), choices_(std::move(choices)) {}

 private:
  static OptionSpec WithChoices(OptionSpec spec, const std::vector<Choice>& choices) {
    spec.choices.clear();
    for (const Choice& c : choices) spec.choices.push_back(c.text);
    return spec;
  }
  T ValueOf(std::string_view text) const override {
    for (const Choice& c : choices_)
      if (c.text == text) return c.value;
    return choices_.front().value;  // not reached: Text() accepts only the choices
  }

  std::vector<Choice> choices_;
};

// A number within the spec's [min, max]; whole numbers when T is an integer type.
template <typename T>
  requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
class NumberOption final : public TypedOption<T> {
 public:
  explicit NumberOption(OptionSpec spec)
      : TypedOption<T>(std::move(spec), std::is_integral_v<T> ? OptionType::Integer : OptionType::Number) {}

 private:
  T ValueOf(std::string_view text) const override { return static_cast<T>(DeclaredOption::NumberIn(text)); }
};

// A name: not empty, no spaces or control characters.
class WordOption final : public TypedOption<std::string> {
 public:
  explicit WordOption(OptionSpec spec) : TypedOption(std::move(spec), OptionType::Word) {}

 private:
  std::string ValueOf(std::string_view text) const override { return std::string(text); }
};

// Off unless given (no value on the command line).
class FlagOption final : public DeclaredOption {
 public:
  explicit FlagOption(OptionSpec spec) : DeclaredOption(std::move(spec), OptionType::Flag) {}
  bool Get(const Options& options) const {
    const std::optional<std::string_view> text = Text(options);
    return text && *text == "1";
  }
};

}  // namespace animkit
