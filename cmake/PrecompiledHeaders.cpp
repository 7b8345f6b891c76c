// The one source of the FAPrecompiledHeaders object library: it exists so
// that the precompiled MLIR headers (cmake/FAPrecompiledHeaders.cmake) are
// built once, with the flags of fa's libraries, and reused by all of them.
