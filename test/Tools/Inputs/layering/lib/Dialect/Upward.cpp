// A dialect file that reads the tile search: an upward include.
#include "fa/Kernel/KernelModel.h"
#include "fa/Transforms/TileSelection/TileSelection.h"
