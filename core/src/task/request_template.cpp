#include "krino/core/task/request_template.hpp"

#include "krino/core/common/error.hpp"

#include <krino/json_parse.hpp>
#include <boost/json.hpp>
#include <krino/json_text.hpp>

#include <array>

namespace krino::core {
namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, 7> kRoots = {"inputs", "expectedOutputs", "metadata", "id",
                                                    "index",  "example",         "env"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> split_path(std::string_view name) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    parts.emplace_back(name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string joined(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& part : path) out += (out.empty() ? "" : ".") + part;
  return out;
}

void append_text(std::string& out, const json::value& value) {
  if (value.is_string()) out.append(value.get_string().data(), value.get_string().size());
  else out += ::krino::json::to_compact_json(value);
}

void append_percent_encoded(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : text) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
}

}  // namespace

const json::value* TemplateContext::lookup(const std::vector<std::string>& path) {
  const std::string& root = path.front();
  auto it = parsed_.find(root);
  if (it == parsed_.end()) {
    json::value value;
    if (root == "index") {
      value = index_;
    } else if (root == "example") {
      // What the system under test may see of the example: never its expected outputs, which a
      // task that sends them along would leak into the answer being graded.
      json::object document;
      for (std::string_view key : {"id", "inputs", "metadata"})
        if (auto raw = example_.raw(key)) document[key] = krino::json::parse(*raw);
      value = std::move(document);
    } else if (auto raw = example_.raw(root)) {
      value = krino::json::parse(*raw);
    } else {
      return nullptr;
    }
    it = parsed_.emplace(root, std::move(value)).first;
  }
  const json::value* current = &it->second;
  for (size_t i = 1; i < path.size(); ++i) {
    if (current->is_object()) {
      current = current->get_object().if_contains(path[i]);
    } else if (current->is_array()) {
      // A list element by position: {{inputs.messages.0.content}}.
      size_t position = 0;
      const std::string& part = path[i];
      if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return nullptr;
      position = std::stoull(part);
      current = position < current->get_array().size() ? &current->get_array()[position] : nullptr;
    } else {
      return nullptr;
    }
    if (current == nullptr) return nullptr;
  }
  return current;
}

RequestTemplate::RequestTemplate(std::string_view text, std::string_view where, const EnvironmentLookup& environment)
    : where_(where) {
  size_t pos = 0;
  auto add_literal = [&](std::string_view literal) {
    if (literal.empty()) return;
    if (!pieces_.empty() && !pieces_.back().is_path) pieces_.back().text += literal;
    else pieces_.push_back(Piece{false, std::string(literal), {}});
  };
  while (pos < text.size()) {
    const size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) {
      add_literal(text.substr(pos));
      break;
    }
    add_literal(text.substr(pos, open - pos));
    const size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos)
      throw config_error(std::string(where) + ": '{{' at offset " + std::to_string(open) + " is never closed by '}}'");
    const std::string_view name = trim(text.substr(open + 2, close - open - 2));
    std::vector<std::string> path = split_path(name);
    bool known = false;
    for (std::string_view root : kRoots) known = known || path.front() == root;
    bool empty_part = false;
    for (const auto& part : path) empty_part = empty_part || part.empty();
    if (name.empty() || empty_part || !known) {
      throw config_error(std::string(where) + ": '{{" + std::string(name) +
                         "}}' names nothing an example has (use inputs.<key>, expectedOutputs.<key>, "
                         "metadata.<key>, id, index, example or env.<VARIABLE>)");
    }
    if (path.front() == "env") {
      if (path.size() != 2)
        throw config_error(std::string(where) + ": '{{" + std::string(name) + "}}': write {{env.VARIABLE}}");
      auto value = environment(path[1]);
      if (!value)
        throw config_error(std::string(where) + ": the environment variable " + path[1] + " is not set");
      secrets_.push_back(*value);
      add_literal(*value);
    } else {
      pieces_.push_back(Piece{true, {}, std::move(path)});
    }
    pos = close + 2;
  }
}

std::string RequestTemplate::render(TemplateContext& context, Encoding encoding) const {
  std::string out;
  for (const Piece& piece : pieces_) {
    if (!piece.is_path) {
      out += piece.text;
      continue;
    }
    const json::value* value = context.lookup(piece.path);
    if (value == nullptr)
      throw TemplateValueMissing("the example has no " + joined(piece.path) + " (used in " + where_ + ")");
    if (encoding == Encoding::text) {
      append_text(out, *value);
    } else {
      std::string text;
      append_text(text, *value);
      append_percent_encoded(out, text);
    }
  }
  return out;
}

const json::value& RequestTemplate::single_value(TemplateContext& context) const {
  const json::value* value = context.lookup(pieces_.front().path);
  if (value == nullptr)
    throw TemplateValueMissing("the example has no " + joined(pieces_.front().path) + " (used in " + where_ + ")");
  return *value;
}

std::string RequestTemplate::sample() const {
  std::string out;
  for (const Piece& piece : pieces_) out += piece.is_path ? std::string("x") : piece.text;
  return out;
}

JsonBodyTemplate::JsonBodyTemplate(const json::value& body, std::string_view where,
                                   const EnvironmentLookup& environment)
    : body_(body) {
  // Every string, in the order render_value() meets them.
  auto visit = [&](auto&& self, const json::value& value, const std::string& at) -> void {
    if (value.is_string()) {
      strings_.emplace_back(value.get_string(), at, environment);
      for (const auto& secret : strings_.back().secrets()) secrets_.push_back(secret);
    } else if (value.is_object()) {
      for (const auto& [key, member] : value.get_object()) self(self, member, at + "." + std::string(key));
    } else if (value.is_array()) {
      size_t i = 0;
      for (const auto& element : value.get_array()) self(self, element, at + "." + std::to_string(i++));
    }
  };
  visit(visit, body_, std::string(where));
}

json::value JsonBodyTemplate::render(TemplateContext& context) const {
  size_t next = 0;
  return render_value(body_, context, next);
}

json::value JsonBodyTemplate::render_value(const json::value& value, TemplateContext& context, size_t& next) const {
  if (value.is_string()) {
    const RequestTemplate& text = strings_[next++];
    if (text.is_single_value()) return text.single_value(context);
    return json::value(text.render(context));
  }
  if (value.is_object()) {
    json::object out;
    out.reserve(value.get_object().size());
    for (const auto& [key, member] : value.get_object()) out[key] = render_value(member, context, next);
    return out;
  }
  if (value.is_array()) {
    json::array out;
    out.reserve(value.get_array().size());
    for (const auto& element : value.get_array()) out.push_back(render_value(element, context, next));
    return out;
  }
  return value;
}

}  // namespace krino::core
