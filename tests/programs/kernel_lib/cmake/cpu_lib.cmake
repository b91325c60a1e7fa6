find_package(tikicpulib REQUIRED)
add_library(scale_kernels_${RUN_MODE} SHARED ${KERNEL_FILES})
target_link_libraries(scale_kernels_${RUN_MODE} PUBLIC tikicpulib::${SOC_VERSION})
