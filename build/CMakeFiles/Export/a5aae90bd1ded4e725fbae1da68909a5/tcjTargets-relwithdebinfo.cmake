#----------------------------------------------------------------
# Generated CMake target import file for configuration "RelWithDebInfo".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "tcj::tcj" for configuration "RelWithDebInfo"
set_property(TARGET tcj::tcj APPEND PROPERTY IMPORTED_CONFIGURATIONS RELWITHDEBINFO)
set_target_properties(tcj::tcj PROPERTIES
  IMPORTED_LOCATION_RELWITHDEBINFO "${_IMPORT_PREFIX}/lib/libtcj.so.0.1.0"
  IMPORTED_SONAME_RELWITHDEBINFO "libtcj.so.0"
  )

list(APPEND _cmake_import_check_targets tcj::tcj )
list(APPEND _cmake_import_check_files_for_tcj::tcj "${_IMPORT_PREFIX}/lib/libtcj.so.0.1.0" )

# Import target "tcj::tcj_static" for configuration "RelWithDebInfo"
set_property(TARGET tcj::tcj_static APPEND PROPERTY IMPORTED_CONFIGURATIONS RELWITHDEBINFO)
set_target_properties(tcj::tcj_static PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELWITHDEBINFO "C"
  IMPORTED_LOCATION_RELWITHDEBINFO "${_IMPORT_PREFIX}/lib/libtcj.a"
  )

list(APPEND _cmake_import_check_targets tcj::tcj_static )
list(APPEND _cmake_import_check_files_for_tcj::tcj_static "${_IMPORT_PREFIX}/lib/libtcj.a" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
