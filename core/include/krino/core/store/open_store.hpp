#pragma once
// The Store a `--database` value names: a postgresql:// (or postgres://) URI opens PostgreSQL,
// anything else is the path of a SQLite file (created when absent).
#include "krino/core/store/store.hpp"

#include <memory>
#include <string>

namespace krino::core::store {

bool is_postgres_uri(const std::string& database);
std::unique_ptr<Store> open_store(const std::string& database);

}  // namespace krino::core::store
