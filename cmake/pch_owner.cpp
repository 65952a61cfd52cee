// Compiled only so that CMake has a target to build each precompiled header group from
// (cmake/KrinoPrecompiledHeaders.cmake); it defines nothing.
