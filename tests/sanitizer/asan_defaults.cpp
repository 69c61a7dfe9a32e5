// SPDX-License-Identifier: MIT
// AddressSanitizer's defaults for the sanitizer build's test binaries (ASAN_OPTIONS adds to
// them). allocator_may_return_null=1: an impossible allocation returns null, as glibc's malloc
// does in a release build, instead of aborting the process. libhdf5 1.10 allocates whatever a
// damaged object header claims (H5C_protect asked for 2 TiB after one flipped bit in the
// reader fuzz test); in a release build that malloc fails, libhdf5 reports an error and rubble
// refuses the file, and the sanitizer build must test that same path.
extern "C" const char* __asan_default_options();
extern "C" const char* __asan_default_options() {
    return "allocator_may_return_null=1";
}
