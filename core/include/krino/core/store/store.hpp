#pragma once
// Where the results server keeps projects, experiments, runs and their items: one interface, a
// backend per database (SQLite by default, PostgreSQL for a team). Everything above it (API
// handlers, gate, diff, alerts) talks to a Store and never to SQL.
#include <string>

namespace krino::core::store {

class Store {
 public:
  virtual ~Store() = default;

  // "sqlite" or "postgresql", for /readyz and the logs.
  virtual std::string backend() const = 0;
  // The highest migration applied.
  virtual int schema_version() = 0;
};

}  // namespace krino::core::store
