// How long rocRAND 5.7's MT19937 generator set-up takes on a host CPU:
// the loop of mt19937_generator::init() (library/src/rng/mt19937.hpp),
// which makes its 8,192 engines on the host, each one subsequence (a jump
// of the 19,937-bit state) past the one before, before copying them to
// the GPU. In a guest this runs on the emulated CPU (docs/rocm-libs.md,
// "rocRAND 5.7.1: every test case"). Built against the source tree
// scripts/test-rocm-libs unpacked:
//
//   S=$HSAGPU_CACHE/rocm-libs/src/rocrand_5.7.1-6
//   B=$HSAGPU_CACHE/rocm-libs/build/rocrand_5.7.1-6
//   hipcc -O3 -I$S/library/src -I$S/library/include -I$B/library/include \
//       -o /tmp/mt19937-setup scripts/rocm-libs/mt19937-setup.cpp
//   taskset -c 0 /tmp/mt19937-setup
#include "rng/mt19937.hpp"

#include <chrono>
#include <cstdio>
#include <vector>

int main()
{
    using engine_type = rocrand_host::detail::mt19937_engine;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<engine_type> engines;

    engines.reserve(generator_count);
    engines.emplace_back(0ULL);         // the generator's default seed
    for (size_t i = 1; i < generator_count; i++) {
        engines.push_back(engines.back());
        engines[i].discard_subsequence();
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("%u MT19937 engines made on the host in %.2f s\n", generator_count, s);
    return 0;
}
