# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/build/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test(test_builder "/work/main/build/tests/test_builder")
set_tests_properties(test_builder PROPERTIES  LABELS "unit" TIMEOUT "1800" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;14;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test(test_cfg "/work/main/build/tests/test_cfg")
set_tests_properties(test_cfg PROPERTIES  LABELS "unit" TIMEOUT "1800" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;14;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test(test_compile_matrix "/work/main/build/tests/test_compile_matrix")
set_tests_properties(test_compile_matrix PROPERTIES  LABELS "unit" TIMEOUT "1800" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;14;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test(test_layout "/work/main/build/tests/test_layout")
set_tests_properties(test_layout PROPERTIES  LABELS "unit" TIMEOUT "1800" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;14;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test(test_select "/work/main/build/tests/test_select")
set_tests_properties(test_select PROPERTIES  LABELS "unit" TIMEOUT "1800" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;14;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test(test_gemm_gpu "/work/main/build/tests/test_gemm_gpu")
set_tests_properties(test_gemm_gpu PROPERTIES  LABELS "gpu" TIMEOUT "1800" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;26;add_test;/work/main/tests/CMakeLists.txt;0;")
