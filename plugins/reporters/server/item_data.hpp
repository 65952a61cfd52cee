// One finished item as the results server takes it: the Dokimos server's ItemData (inputs,
// expectedOutputs, actualOutputs, metadata, evalResults, success, datasetItemId) with the call
// metrics beside it (tokensIn, tokensOut, costUsd, latencyMs) and krino's own members the server
// keeps as sent (itemId, itemIndex, runIndex, location, error, durationMs).
//
// Bytes pass through: the sections and each evaluator's result document are copied as the event
// holds them, so every number reaches the server exactly as the run wrote it.
#ifndef KRINO_SERVER_ITEM_DATA_HPP
#define KRINO_SERVER_ITEM_DATA_HPP

#include <krino/event/item_finished.hpp>

#include <string>

namespace krino::server {

// Appends the item's ItemData object to `out`.
void append_item_data(std::string& out, const krino::event::ItemFinished& item);

}  // namespace krino::server

#endif  // KRINO_SERVER_ITEM_DATA_HPP
