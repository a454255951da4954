# SPDX-License-Identifier: Apache-2.0
# tcj_check_cuda_toolkit(VERSION INCLUDE_DIRS): fails the configure step, saying why, when the
# CUDA toolkit found cannot build tcj: the engine compiles against nvJitLink.h and the CUDA 12.0
# driver API (cuTensorMapEncodeTiled, CUtensorMap), and nvJitLink first shipped with CUDA 12.0.
set(TCJ_CUDA_MIN_VERSION 12.0)
function(tcj_check_cuda_toolkit version include_dirs)
  if(NOT version)
    message(FATAL_ERROR "tcj: the CUDA toolkit's version is unknown (found headers in "
                        "'${include_dirs}'); tcj needs CUDA ${TCJ_CUDA_MIN_VERSION} or newer "
                        "(set CUDAToolkit_ROOT to its directory)")
  endif()
  if(version VERSION_LESS TCJ_CUDA_MIN_VERSION)
    message(FATAL_ERROR "tcj: the CUDA toolkit found is ${version} (headers in '${include_dirs}'); "
                        "tcj needs CUDA ${TCJ_CUDA_MIN_VERSION} or newer, the first with nvJitLink "
                        "(set CUDAToolkit_ROOT to a newer toolkit)")
  endif()
  find_file(TCJ_NVJITLINK_H nvJitLink.h PATHS ${include_dirs} NO_DEFAULT_PATH)
  if(NOT TCJ_NVJITLINK_H)
    message(FATAL_ERROR "tcj: the CUDA ${version} toolkit in '${include_dirs}' has no nvJitLink.h; "
                        "install its nvJitLink development files (e.g. cuda-nvjitlink-dev-*)")
  endif()
endfunction()
