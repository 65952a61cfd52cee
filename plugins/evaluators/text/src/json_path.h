// A location inside a JSON document, rendered as $.a.b[2] or $["key with spaces"].
#ifndef KRINO_TEXT_JSON_PATH_H
#define KRINO_TEXT_JSON_PATH_H

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace krino::text {

// Kept as segments and rendered only when a location is reported, since most locations visited
// during a comparison never are. Keys are views: the documents must outlive the path.
class JsonPath {
 public:
  // Adds one segment for the lifetime of the scope.
  class Scope {
   public:
    Scope(JsonPath& path, std::string_view key) : path_(path) { path_.segments_.push_back({key, 0, false}); }
    Scope(JsonPath& path, std::size_t index) : path_(path) { path_.segments_.push_back({{}, index, true}); }
    ~Scope() { path_.segments_.pop_back(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    JsonPath& path_;
  };

  // "$" for the root. A key that is an identifier ([A-Za-z_][A-Za-z0-9_]*) is written .key,
  // any other key as ["..."] with JSON escaping, an index as [i].
  std::string str() const;

 private:
  struct Segment {
    std::string_view key;
    std::size_t index;
    bool is_index;
  };
  std::vector<Segment> segments_;
};

}  // namespace krino::text

#endif  // KRINO_TEXT_JSON_PATH_H
