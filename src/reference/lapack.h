// Internal: the LAPACK (and BLAS trsm) routines the linear-algebra layers
// call, declared by hand (Debian's reference liblapack3, the library
// python3-torch links; no LAPACKE needed), with one overload per element type.
// Fortran conventions: column-major, arguments by pointer, 32-bit integers
// (LP64), and each CHARACTER argument's length passed after the others.
#pragma once

#include <cstddef>

namespace atenrt::reference::lapack {

using lint = int;  // LAPACK's INTEGER (LP64 builds)

extern "C" {
// NOLINTBEGIN: Fortran symbol names
void sgetrf_(const lint* m, const lint* n, float* a, const lint* lda, lint* ipiv, lint* info);
void dgetrf_(const lint* m, const lint* n, double* a, const lint* lda, lint* ipiv, lint* info);
void sgetrs_(const char* trans, const lint* n, const lint* nrhs, const float* a, const lint* lda, const lint* ipiv,
             float* b, const lint* ldb, lint* info, std::size_t);
void dgetrs_(const char* trans, const lint* n, const lint* nrhs, const double* a, const lint* lda, const lint* ipiv,
             double* b, const lint* ldb, lint* info, std::size_t);
void spotrf_(const char* uplo, const lint* n, float* a, const lint* lda, lint* info, std::size_t);
void dpotrf_(const char* uplo, const lint* n, double* a, const lint* lda, lint* info, std::size_t);
void spotrs_(const char* uplo, const lint* n, const lint* nrhs, const float* a, const lint* lda, float* b,
             const lint* ldb, lint* info, std::size_t);
void dpotrs_(const char* uplo, const lint* n, const lint* nrhs, const double* a, const lint* lda, double* b,
             const lint* ldb, lint* info, std::size_t);
void spotri_(const char* uplo, const lint* n, float* a, const lint* lda, lint* info, std::size_t);
void dpotri_(const char* uplo, const lint* n, double* a, const lint* lda, lint* info, std::size_t);
void sgeqrf_(const lint* m, const lint* n, float* a, const lint* lda, float* tau, float* work, const lint* lwork,
             lint* info);
void dgeqrf_(const lint* m, const lint* n, double* a, const lint* lda, double* tau, double* work, const lint* lwork,
             lint* info);
void sorgqr_(const lint* m, const lint* n, const lint* k, float* a, const lint* lda, const float* tau, float* work,
             const lint* lwork, lint* info);
void dorgqr_(const lint* m, const lint* n, const lint* k, double* a, const lint* lda, const double* tau, double* work,
             const lint* lwork, lint* info);
void sormqr_(const char* side, const char* trans, const lint* m, const lint* n, const lint* k, const float* a,
             const lint* lda, const float* tau, float* c, const lint* ldc, float* work, const lint* lwork, lint* info,
             std::size_t, std::size_t);
void dormqr_(const char* side, const char* trans, const lint* m, const lint* n, const lint* k, const double* a,
             const lint* lda, const double* tau, double* c, const lint* ldc, double* work, const lint* lwork,
             lint* info, std::size_t, std::size_t);
void sgesdd_(const char* jobz, const lint* m, const lint* n, float* a, const lint* lda, float* s, float* u,
             const lint* ldu, float* vt, const lint* ldvt, float* work, const lint* lwork, lint* iwork, lint* info,
             std::size_t);
void dgesdd_(const char* jobz, const lint* m, const lint* n, double* a, const lint* lda, double* s, double* u,
             const lint* ldu, double* vt, const lint* ldvt, double* work, const lint* lwork, lint* iwork, lint* info,
             std::size_t);
void ssyevd_(const char* jobz, const char* uplo, const lint* n, float* a, const lint* lda, float* w, float* work,
             const lint* lwork, lint* iwork, const lint* liwork, lint* info, std::size_t, std::size_t);
void dsyevd_(const char* jobz, const char* uplo, const lint* n, double* a, const lint* lda, double* w, double* work,
             const lint* lwork, lint* iwork, const lint* liwork, lint* info, std::size_t, std::size_t);
void ssytrf_(const char* uplo, const lint* n, float* a, const lint* lda, lint* ipiv, float* work, const lint* lwork,
             lint* info, std::size_t);
void dsytrf_(const char* uplo, const lint* n, double* a, const lint* lda, lint* ipiv, double* work, const lint* lwork,
             lint* info, std::size_t);
void ssytrs_(const char* uplo, const lint* n, const lint* nrhs, const float* a, const lint* lda, const lint* ipiv,
             float* b, const lint* ldb, lint* info, std::size_t);
void dsytrs_(const char* uplo, const lint* n, const lint* nrhs, const double* a, const lint* lda, const lint* ipiv,
             double* b, const lint* ldb, lint* info, std::size_t);
void strsm_(const char* side, const char* uplo, const char* transa, const char* diag, const lint* m, const lint* n,
            const float* alpha, const float* a, const lint* lda, float* b, const lint* ldb, std::size_t, std::size_t,
            std::size_t, std::size_t);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const lint* m, const lint* n,
            const double* alpha, const double* a, const lint* lda, double* b, const lint* ldb, std::size_t,
            std::size_t, std::size_t, std::size_t);
// NOLINTEND
}

// Typed overloads (float -> s*, double -> d*); characters are single letters.
inline void getrf(lint m, lint n, float* a, lint lda, lint* ipiv, lint* info) { sgetrf_(&m, &n, a, &lda, ipiv, info); }
inline void getrf(lint m, lint n, double* a, lint lda, lint* ipiv, lint* info) { dgetrf_(&m, &n, a, &lda, ipiv, info); }
inline void getrs(char trans, lint n, lint nrhs, const float* a, lint lda, const lint* ipiv, float* b, lint ldb, lint* info) {
  sgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);
}
inline void getrs(char trans, lint n, lint nrhs, const double* a, lint lda, const lint* ipiv, double* b, lint ldb, lint* info) {
  dgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);
}
inline void potrf(char uplo, lint n, float* a, lint lda, lint* info) { spotrf_(&uplo, &n, a, &lda, info, 1); }
inline void potrf(char uplo, lint n, double* a, lint lda, lint* info) { dpotrf_(&uplo, &n, a, &lda, info, 1); }
inline void potrs(char uplo, lint n, lint nrhs, const float* a, lint lda, float* b, lint ldb, lint* info) {
  spotrs_(&uplo, &n, &nrhs, a, &lda, b, &ldb, info, 1);
}
inline void potrs(char uplo, lint n, lint nrhs, const double* a, lint lda, double* b, lint ldb, lint* info) {
  dpotrs_(&uplo, &n, &nrhs, a, &lda, b, &ldb, info, 1);
}
inline void potri(char uplo, lint n, float* a, lint lda, lint* info) { spotri_(&uplo, &n, a, &lda, info, 1); }
inline void potri(char uplo, lint n, double* a, lint lda, lint* info) { dpotri_(&uplo, &n, a, &lda, info, 1); }
inline void geqrf(lint m, lint n, float* a, lint lda, float* tau, float* work, lint lwork, lint* info) {
  sgeqrf_(&m, &n, a, &lda, tau, work, &lwork, info);
}
inline void geqrf(lint m, lint n, double* a, lint lda, double* tau, double* work, lint lwork, lint* info) {
  dgeqrf_(&m, &n, a, &lda, tau, work, &lwork, info);
}
inline void orgqr(lint m, lint n, lint k, float* a, lint lda, const float* tau, float* work, lint lwork, lint* info) {
  sorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
inline void orgqr(lint m, lint n, lint k, double* a, lint lda, const double* tau, double* work, lint lwork, lint* info) {
  dorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
inline void ormqr(char side, char trans, lint m, lint n, lint k, const float* a, lint lda, const float* tau, float* c,
                  lint ldc, float* work, lint lwork, lint* info) {
  sormqr_(&side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, info, 1, 1);
}
inline void ormqr(char side, char trans, lint m, lint n, lint k, const double* a, lint lda, const double* tau, double* c,
                  lint ldc, double* work, lint lwork, lint* info) {
  dormqr_(&side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, info, 1, 1);
}
inline void gesdd(char jobz, lint m, lint n, float* a, lint lda, float* s, float* u, lint ldu, float* vt, lint ldvt,
                  float* work, lint lwork, lint* iwork, lint* info) {
  sgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1);
}
inline void gesdd(char jobz, lint m, lint n, double* a, lint lda, double* s, double* u, lint ldu, double* vt, lint ldvt,
                  double* work, lint lwork, lint* iwork, lint* info) {
  dgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1);
}
inline void syevd(char jobz, char uplo, lint n, float* a, lint lda, float* w, float* work, lint lwork, lint* iwork,
                  lint liwork, lint* info) {
  ssyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1);
}
inline void syevd(char jobz, char uplo, lint n, double* a, lint lda, double* w, double* work, lint lwork, lint* iwork,
                  lint liwork, lint* info) {
  dsyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1);
}
inline void sytrf(char uplo, lint n, float* a, lint lda, lint* ipiv, float* work, lint lwork, lint* info) {
  ssytrf_(&uplo, &n, a, &lda, ipiv, work, &lwork, info, 1);
}
inline void sytrf(char uplo, lint n, double* a, lint lda, lint* ipiv, double* work, lint lwork, lint* info) {
  dsytrf_(&uplo, &n, a, &lda, ipiv, work, &lwork, info, 1);
}
inline void sytrs(char uplo, lint n, lint nrhs, const float* a, lint lda, const lint* ipiv, float* b, lint ldb, lint* info) {
  ssytrs_(&uplo, &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);
}
inline void sytrs(char uplo, lint n, lint nrhs, const double* a, lint lda, const lint* ipiv, double* b, lint ldb, lint* info) {
  dsytrs_(&uplo, &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);
}
inline void trsm(char side, char uplo, char trans, char diag, lint m, lint n, float alpha, const float* a, lint lda,
                 float* b, lint ldb) {
  strsm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);
}
inline void trsm(char side, char uplo, char trans, char diag, lint m, lint n, double alpha, const double* a, lint lda,
                 double* b, lint ldb) {
  dtrsm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);
}

}  // namespace atenrt::reference::lapack
