# Cross-compiling animkit.exe for 64-bit Windows with Debian's MinGW-w64 (make windows;
# docs/windows.md). The POSIX thread model (the -posix compilers) gives std::thread.
# ANIMKIT_WINDOWS_DEPS: the folder tools/windows/build-deps.sh filled (include/, lib/).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(ANIMKIT_WINDOWS_DEPS "" CACHE PATH "the libraries tools/windows/build-deps.sh built")
set(CMAKE_FIND_ROOT_PATH ${ANIMKIT_WINDOWS_DEPS} /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# One executable, no DLL beside it: the C++ runtime, winpthreads and OpenMP linked in.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
