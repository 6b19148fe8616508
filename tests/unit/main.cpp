// The Catch2 main for Kerb's unit tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
