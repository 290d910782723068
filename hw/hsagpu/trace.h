#include "trace/trace-hw_hsagpu.h"
