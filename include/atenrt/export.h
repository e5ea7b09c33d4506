/* What libatenrt.so exports. The library is compiled with hidden visibility and
   linked with a version script (cmake/libatenrt.map), so only declarations marked
   ATENRT_API -- the public API of include/atenrt/ -- reach its dynamic symbol
   table. Plain C, so that atenrt_c.h can include it. */
#ifndef ATENRT_EXPORT_H
#define ATENRT_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define ATENRT_API __attribute__((visibility("default")))
#else
#define ATENRT_API
#endif

#endif /* ATENRT_EXPORT_H */
