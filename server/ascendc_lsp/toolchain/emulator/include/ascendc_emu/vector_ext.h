#pragma once
#include "vector.h"
