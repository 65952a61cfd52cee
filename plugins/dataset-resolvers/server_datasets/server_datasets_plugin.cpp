// krino-server-datasets: the `dataset://name@version` resolver over krino serve. Rules and cache:
// docs/plugins/server-datasets.md.
#include "server_dataset_resolver.hpp"

#include <krino/plugin.hpp>

KRINO_DATASET_RESOLVER(krino::server_datasets::ServerDatasetResolver, "krino.server_datasets.dataset", "dataset", "1.0.0",
                       "A version of a krino serve dataset (KRINO_SERVER_URL), with an offline cache", "dataset", "",
                       R"({"type":"object","additionalProperties":false})");

KRINO_PLUGIN("krino.server_datasets", "server-datasets", "1.0.0", "krino", "Apache-2.0",
             "Server datasets: dataset://name@version read from krino serve, cached for offline runs");
