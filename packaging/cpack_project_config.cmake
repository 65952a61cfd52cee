# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE in packaging/CMakeLists.txt).
# The DEB generator puts CPACK_PACKAGE_DESCRIPTION_SUMMARY in front of every component's
# description; each of ours starts with its own synopsis line, so the summary must not be there.
if(CPACK_GENERATOR STREQUAL "DEB")
  unset(CPACK_PACKAGE_DESCRIPTION_SUMMARY)
endif()
