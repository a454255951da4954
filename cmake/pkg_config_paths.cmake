# SPDX-License-Identifier: Apache-2.0
# tcj_pc_paths(PREFIX LIBDIR INCLUDEDIR OUT_PREFIX OUT_LIBDIR OUT_INCLUDEDIR): the prefix,
# libdir and includedir lines of tcj.pc from absolute install paths (GNUInstallDirs' FULL ones).
# Relative to the .pc file's own place (${pcfiledir}, in LIBDIR/pkgconfig) when LIBDIR is inside
# PREFIX, so that the installed tree may move; otherwise the prefix is written absolute, and so
# is a directory outside it.
function(tcj_pc_paths prefix libdir includedir out_prefix out_libdir out_includedir)
  # inside(DIR VAR): VAR = DIR relative to the prefix, or empty when DIR is outside it.
  macro(inside dir var)
    file(RELATIVE_PATH ${var} "${prefix}" "${dir}")
    if(${var} MATCHES "^\\.\\./|^\\.\\.$" OR IS_ABSOLUTE "${${var}}")
      set(${var} "")
    elseif(${var} STREQUAL "")
      set(${var} ".")
    endif()
  endmacro()
  inside("${libdir}" lib_rel)
  inside("${includedir}" inc_rel)
  if(lib_rel)
    file(RELATIVE_PATH up "${libdir}/pkgconfig" "${prefix}")
    string(REGEX REPLACE "/$" "" up "${up}")
    set(pc_prefix "\${pcfiledir}/${up}")
  else()
    set(pc_prefix "${prefix}")
  endif()
  set(pc_libdir "${libdir}")
  if(lib_rel)
    set(pc_libdir "\${prefix}/${lib_rel}")
  endif()
  set(pc_includedir "${includedir}")
  if(inc_rel)
    set(pc_includedir "\${prefix}/${inc_rel}")
  endif()
  string(REGEX REPLACE "/\\.$" "" pc_libdir "${pc_libdir}")
  string(REGEX REPLACE "/\\.$" "" pc_includedir "${pc_includedir}")
  set(${out_prefix} "${pc_prefix}" PARENT_SCOPE)
  set(${out_libdir} "${pc_libdir}" PARENT_SCOPE)
  set(${out_includedir} "${pc_includedir}" PARENT_SCOPE)
endfunction()
