// Reading an entry point's arguments and splitting its results (see entry_io.h).
#include "driver/entry_io.h"

#include "driver/cli.h"
#include "runtime/npy.h"
#include "runtime/value_text.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace kerb::driver {

namespace {

// Appends the slots of a value of type `t`: a primitive or an array of primitives is
// one slot; a tuple (or an array of tuples) is its components' slots, in order. A
// tuple pattern names the components; otherwise they are called NAME.0, NAME.1, ...
void flatten_type(const ValueType &t, const std::string &name, const Pattern *pattern,
                  std::vector<Slot> &out) {
  if (t.kind == ValueType::Prim) {
    out.push_back(Slot{name, t});
    return;
  }
  bool named = pattern && pattern->kind == Pattern::Tuple && t.rank == 0 &&
               pattern->elems.size() == t.elems.size();
  for (size_t k = 0; k < t.elems.size(); ++k) {
    ValueType component = t.elems[k];
    component.rank += t.rank;
    const Pattern *sub = named ? &pattern->elems[k] : nullptr;
    std::string sub_name = sub && sub->kind == Pattern::Id
                               ? sub->name
                               : (name.empty() ? "" : fmt::format("{}.{}", name, k));
    flatten_type(component, sub_name, sub, out);
  }
}

std::string param_name(const Pattern &p, size_t index) {
  if (p.kind == Pattern::Id) return p.name;
  if (p.kind == Pattern::Wildcard) return "_";
  std::string text(p.span.text());
  return text.empty() ? fmt::format("parameter {}", index + 1) : text;
}

// Rebuilds a value of type `t` from flattened values starting at flat[pos].
Value assemble(const ValueType &t, const std::vector<Value> &flat, size_t &pos,
               const std::string &what) {
  if (t.kind == ValueType::Prim) {
    if (pos >= flat.size()) throw InputError(fmt::format("{}: too few values", what));
    return flat[pos++];
  }
  std::vector<Value> components;
  for (const ValueType &elem : t.elems) {
    ValueType component = elem;
    component.rank += t.rank;
    components.push_back(assemble(component, flat, pos, what));
  }
  if (t.rank == 0) return Value::tuple(std::move(components));
  if (components.empty())
    throw InputError(fmt::format("{}: arrays of empty tuples are not supported", what));
  const std::vector<int64_t> &first = components[0].shape();
  std::vector<int64_t> outer(first.begin(), first.begin() + t.rank);
  for (const Value &c : components) {
    const std::vector<int64_t> &shape = c.shape();
    if (!std::equal(outer.begin(), outer.end(), shape.begin()))
      throw InputError(
          fmt::format("{}: the component arrays of an array of tuples differ in their outer size "
                      "({} and {})",
                      what, first[0], shape[0]));
  }
  return make_tuple_array(std::move(outer), std::move(components));
}

void flatten_value(const Value &v, std::vector<Value> &out) {
  if (v.kind == Value::Tuple) {
    for (const Value &e : v.elems)
      flatten_value(e, out);
    return;
  }
  if (v.kind == Value::Array && v.array && v.array->elem.kind == ValueType::Tuple) {
    for (const Value &c : v.array->components)
      flatten_value(c, out);
    return;
  }
  out.push_back(v);
}

std::string plural(size_t n, const char *word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::string slot_description(SlotRole role, size_t k, const Slot &slot, const std::string &entry) {
  if (role == SlotRole::ExpectedResult)
    return fmt::format("expected result {} of entry '{}'", k + 1, entry);
  if (slot.name.empty()) return fmt::format("argument {} of entry '{}'", k + 1, entry);
  return fmt::format("argument {} ('{}') of entry '{}'", k + 1, slot.name, entry);
}

std::string count_message(SlotRole role, const std::string &entry, size_t expected,
                          const std::string &got) {
  if (role == SlotRole::ExpectedResult)
    return fmt::format("entry '{}' returns {}, but the expected output has {}", entry,
                       plural(expected, "value"), got);
  return fmt::format("entry '{}' expects {}, got {}", entry, plural(expected, "argument"), got);
}

} // namespace

std::vector<Slot> entry_input_slots(const FunDef &entry) {
  std::vector<Slot> slots;
  for (size_t i = 0; i < entry.params.size(); ++i) {
    const Pattern &p = entry.params[i];
    flatten_type(p.type.value_type(), param_name(p, i), &p, slots);
  }
  return slots;
}

std::vector<Slot> entry_output_slots(const FunDef &entry) {
  std::vector<Slot> slots;
  flatten_type(entry.ret_type.value_type(), "", nullptr, slots);
  return slots;
}

std::vector<Value> group_arguments(const FunDef &entry, const std::vector<Value> &flat) {
  std::vector<Value> args;
  size_t pos = 0;
  for (size_t i = 0; i < entry.params.size(); ++i) {
    const Pattern &p = entry.params[i];
    std::string what = fmt::format("parameter '{}' of entry '{}'", param_name(p, i), entry.name);
    args.push_back(assemble(p.type.value_type(), flat, pos, what));
  }
  return args;
}

std::vector<Value> flatten_values(const std::vector<Value> &values) {
  std::vector<Value> out;
  for (const Value &v : values)
    flatten_value(v, out);
  return out;
}

ValueSource load_value_file(const std::string &path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(fmt::format("no such file: '{}'", path));
  if (std::filesystem::is_directory(path, ec))
    throw InputError(fmt::format("'{}' is a directory, not a value file", path));
  ValueSource source;
  source.name = path;
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0)
    throw InputError(fmt::format("'{}': compressed value files are not supported", path));
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".npy") == 0) {
    try {
      source.npy_value = read_npy_file(path);
    } catch (const std::exception &e) {
      throw InputError(e.what());
    }
    source.is_npy = true;
    return source;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot read '{}'", path));
  std::error_code size_ec;
  auto size = std::filesystem::is_regular_file(path, size_ec) ? std::filesystem::file_size(path, size_ec)
                                                              : std::uintmax_t(0);
  if (!size_ec && size > 0) {
    // A regular file: read in one piece (benchmark inputs run to gigabytes).
    source.text.resize(size_t(size));
    if (!in.read(source.text.data(), std::streamsize(size)))
      throw InputError(fmt::format("cannot read '{}'", path));
    return source;
  }
  // A pipe (`--input <(...)`) has no size.
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("cannot read '{}'", path));
  source.text = ss.str();
  return source;
}

std::vector<Value> read_slot_values(std::vector<ValueSource> &sources,
                                    const std::vector<Slot> &slots, SlotRole role,
                                    const std::string &entry_name) {
  std::vector<std::unique_ptr<ValueReader>> readers(sources.size());
  std::vector<bool> npy_used(sources.size(), false);
  size_t current = 0;
  // The next source with a value left, or null when all are used up.
  auto next_source = [&]() -> size_t {
    for (; current < sources.size(); ++current) {
      ValueSource &s = sources[current];
      if (s.is_npy) {
        if (!npy_used[current]) return current;
        continue;
      }
      if (!readers[current]) readers[current] = std::make_unique<ValueReader>(s.text, s.name);
      if (!readers[current]->at_end()) return current;
    }
    return sources.size();
  };

  std::vector<Value> values;
  for (size_t k = 0; k < slots.size(); ++k) {
    const Slot &slot = slots[k];
    size_t s = next_source();
    if (s == sources.size())
      throw InputError(count_message(role, entry_name, slots.size(), std::to_string(k)));
    Value v;
    if (sources[s].is_npy) {
      npy_used[s] = true;
      v = sources[s].npy_value;
    } else {
      try {
        v = readers[s]->read(&slot.type);
      } catch (const std::exception &e) {
        throw InputError(
            fmt::format("{}: {}", slot_description(role, k, slot, entry_name), e.what()));
      }
    }
    if (v.type() != slot.type)
      throw InputError(fmt::format("{}: {} holds a value of type {}, expected {}",
                                   slot_description(role, k, slot, entry_name), sources[s].name,
                                   v.type().str(), slot.type.str()));
    values.push_back(std::move(v));
  }

  // Anything left over is an error too: count it for the message.
  size_t extra = 0;
  bool unreadable_rest = false;
  for (size_t s = next_source(); s < sources.size(); s = next_source()) {
    if (sources[s].is_npy) {
      npy_used[s] = true;
      ++extra;
      continue;
    }
    try {
      readers[s]->read(nullptr);
      ++extra;
    } catch (const std::exception &) {
      unreadable_rest = true;
      break;
    }
  }
  if (extra > 0 || unreadable_rest) {
    std::string got = unreadable_rest ? fmt::format("more than {}", slots.size())
                                      : std::to_string(slots.size() + extra);
    throw InputError(count_message(role, entry_name, slots.size(), got));
  }
  return values;
}

std::string abbreviate(const std::string &text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  return fmt::format("{} ... ({} more characters)", text.substr(0, max_chars),
                     text.size() - max_chars);
}

} // namespace kerb::driver
