/* A plain C bitmask N-Queens counter with mirror halving: the reference the Rust engine is
 * measured against (scripts/compare-c.sh). Single thread, recursive, first-row queen over the
 * left half (x2), middle column for odd n with the second-row queen over the left half (x2). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t mask;

static uint64_t solve(uint64_t cols, uint64_t ld, uint64_t rd) {
    if (cols == mask) return 1;
    uint64_t count = 0;
    uint64_t free = mask & ~(cols | ld | rd);
    while (free) {
        uint64_t bit = free & -free;
        free ^= bit;
        count += solve(cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 16;
    if (n < 2 || n > 63) { fprintf(stderr, "n must be 2..63\n"); return 2; }
    mask = (1ULL << n) - 1;
    uint64_t total = 0;
    for (int c = 0; c < n / 2; c++) {
        uint64_t bit = 1ULL << c;
        total += 2 * solve(bit, bit << 1, bit >> 1);
    }
    if (n % 2) {
        uint64_t mid = 1ULL << (n / 2);
        uint64_t free = mask & ~(mid | (mid << 1) | (mid >> 1));
        for (int c = 0; c < n / 2; c++) {
            uint64_t bit = 1ULL << c;
            if (!(free & bit)) continue;
            total += 2 * solve(mid | bit, ((mid << 1) | bit) << 1, ((mid >> 1) | bit) >> 1);
        }
    }
    printf("%llu\n", (unsigned long long)total);
    return 0;
}
