// The kernel model reading the dialect: an upward include.
#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Target/TargetDescription.h"
