#include "core/layout/owner_map.h"

#include <optional>
#include <set>
#include <string>

#include "core/base/checked.h"
#include "core/base/error.h"
#include "core/layout/named_axes.h"
#include "core/layout/shape_text.h"

namespace mmacheck {

std::vector<ElementOwners> owner_map(const TileLayout& layout, const Shape& shape, std::string_view shape_name,
                                     std::int64_t max_owners) {
  const std::string name(shape_name);
  for (std::int64_t d : shape)
    if (d <= 0) throw Error(name + " " + list_text(shape) + " has a non-positive extent");
  const std::optional<std::int64_t> count = try_product(shape);
  if (count != layout.size())
    throw Error(name + " " + list_text(shape) + " has " + (count ? std::to_string(*count) : "more than 2^63") +
                " elements but the layout covers " + std::to_string(layout.size()));
  Shape replica_extents;
  for (const Iter& it : layout.replica()) replica_extents.push_back(it.extent);
  const std::optional<std::int64_t> replicas = try_product(replica_extents);
  const std::optional<std::int64_t> owners = replicas ? try_mul(*count, *replicas) : std::nullopt;
  if (!owners || *owners > max_owners)
    throw Error(name + ": the map would list more than " + std::to_string(max_owners) + " owners");
  const std::set<Axis> axes = named_axes(layout);
  std::vector<ElementOwners> map;
  map.reserve(static_cast<std::size_t>(*count));
  for (std::int64_t flat = 0; flat < *count; ++flat) {
    ElementOwners e{Shape(shape.size()), {}};
    for (std::size_t d = shape.size(), rest = static_cast<std::size_t>(flat); d-- > 0;) {
      e.coord[d] = static_cast<std::int64_t>(rest % static_cast<std::size_t>(shape[d]));
      rest /= static_cast<std::size_t>(shape[d]);
    }
    for (const Owner& o : layout.apply(e.coord, shape)) {
      Owner full;
      for (const Axis& a : axes) full.emplace(a, owner_coord(o, a));
      e.owners.push_back(std::move(full));
    }
    map.push_back(std::move(e));
  }
  return map;
}

}  // namespace mmacheck
