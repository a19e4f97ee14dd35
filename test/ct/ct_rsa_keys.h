/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Fixed RSA primes for the constant-time validation harness (ct_rsa.c).
 * Generating keys with OpenSSL under valgrind costs tens of seconds per key;
 * these primes let the harness build its keys in milliseconds (n, d, dP, dQ
 * and qInv are computed from them with OpenSSL's BN at run time, e = 65537).
 *
 * Provenance: each prime is the output of
 *     openssl prime -generate -bits B -hex
 * (OpenSSL 3.0.19), drawn again until p != q, gcd(65537, p - 1) =
 * gcd(65537, q - 1) = 1 and p * q has the wanted size:
 *     2048, 3072, 4096   balanced: B = 1024, 1536, 2048 for both primes;
 *     unbal              p of 1024 bits (16 limbs), q of 1056 bits (17
 *                        limbs), n of 2080 bits: the CRT path for prime
 *                        factors of different limb lengths.
 * These keys are test data, published here: never use them for anything. */
#ifndef QUILL_TEST_CT_RSA_KEYS_H
#define QUILL_TEST_CT_RSA_KEYS_H

static const char ct_rsa_2048_p[] =
    "e6581df2279c03882f745fa3f445f7ae9b34e71e2cde436ce3bddf9d39ed2a46"
    "b3f47d1a7a98931d7086fc0d2a76161fc4980a6e9cb3526ddb318785097853f1"
    "4058151646df27f550b0223391df574b47454f8d0952cf6fd40d77822dc88603"
    "89d1572e0da49584c27ac02102566f48dd86b562f3b6fb9c9238fc380ed4fcb7";

static const char ct_rsa_2048_q[] =
    "e764c7ca26d9f396846e7a8cfe2bb62f426abcb23593b0c6d97b0eefc60cef79"
    "7dea2c5c2c70273eea5f30cf51402414fd94edaf1b8129635e083033f0135a85"
    "2464fb7846fd6f630ee7e2eb95c3931d0df454ac4ee8f35e524e2248449e3d73"
    "ffda370d35e2e4daf8df4044dda03a5636c8ea1e826f614fbd7e0dd15740c9bf";

static const char ct_rsa_3072_p[] =
    "fedb8c8ecd4f91f208d333f6d734e2c19118e61e34eec5956ec160753616e35a"
    "d899bb77febc79d402bbfe7c7cfeee8dadca5d313e062298e9dc101ce0cab601"
    "47f79976c4fb851e45e79c03f5a2af1a4e34183a2c19c7363b515a9558816f3f"
    "c27de19cc670958dafdf376839fef326cd22418a3b82c8f563fd59b07549c3e0"
    "8804737067a0d050299cb08f8eb0e3c0044c5c75f81f9d7ccd5966808a4b7112"
    "d5cb9334f7b97685aa619a88a2a2a119b5d4ff955f059e3bd75343da151614a7";

static const char ct_rsa_3072_q[] =
    "d456dfb875774511e1be215ce9a19cb974596607652016a04e6e987ecd7c2178"
    "6ca77a662048a5e5bd38fe1de9271fa45d3720cbb41016d90984e74db853e785"
    "bf33dbd826d6f034984607e4c0be356c998b95892408d7873c7367a931439c2d"
    "bc04d2506a56aa65d2d7750bdc219b0d2d9396136da0725b7dee18def1fc69f6"
    "1bfe6c78f297e1b0029c29d70148512522110501faa40ff608b330eff1c2f766"
    "c198f2070605359a29d97ddbb6190ee3caf879f32458bfea40d2536ac15c66d5";

static const char ct_rsa_4096_p[] =
    "cd5ac269b17cdc0af9ca2ece93c5dbddf655ab7c0180ad72d26b027d14695489"
    "fca58721f95eb1ec8e0415515c1ac7d801958b7f7b40fe723266b63d984f46cb"
    "8fd2333c01da42685a814ccb8f73c0961f36209564124382b75a5764a36e2618"
    "a2886c3ff802c64f3a1830897bda6a9aed90a358138230fdffeec316bce82a3d"
    "22ac936b66a5dba1a9987c47b1823d6096aa5e83cf132ba523b2700d2ee3eecc"
    "95b1c75eaa204a1da8ba8bfd81074b5eb31d041d60352f253987c2b728e186d3"
    "ac1ff22f24ba061975cdce6cdbe190f0bb8d342ab713280d97cb235e6bc9abce"
    "e5158457f358afc8ef54d89b7828975a088a4d55e123474f176f59e877b40419";

static const char ct_rsa_4096_q[] =
    "fcd05a11db8d5ed75fb810a0288e53a66956ad2ea62ffac377a556aa3bd4b0d3"
    "61c6897ffb113953749fe208c813c1d6d4429cd20952a95bc39d1613dca655ed"
    "2e2330ea9ea58fdd3689dd00539e102f6047f1fc97f941e4fbf912e0c9e72061"
    "7711ac89a20b7ea059d670cfe22c91459ce700a20b248acd14b4450dcf4bc74b"
    "4eb3a5ed46910e28a0bbce13788ea7780096347c34c04182ddc65fd39771a625"
    "dd81747e476a7da9b70c6546dbfd4786ace2912c3400ccc9113e15683f72fd7c"
    "086ed892298474e0d564487dd0cb07304229db1a6a4b98bd9cd36130930206df"
    "0659630f7ae852626375bef692335b3f293853cb4046cce44f03d82eb00ca7f5";

static const char ct_rsa_unbal_p[] =
    "fee180538a35668d0006a80a9f91bba1d536206d80c5f3151335daafebf10f25"
    "35ba051fd5c60d76e297a25e12ba9d488e77a621e5813c640090ba2f2a481893"
    "f5848e765f80c4a57b8435ba16a335a9047cf7aa729b6448c80238c0ebb49bf6"
    "2b441c8be2631436761321a7487e22952662ecf5a4920c734afad20c2231426b";

static const char ct_rsa_unbal_q[] =
    "c26d1bdcefcad2e98806dcb3aa0e34e9f0accf0ecdbb40242c9d4ff7c87bb910"
    "ffccf5b54cc7792c769b8f2911d3359ad386cec5522ab41a062a45fe42766c86"
    "394c1393dcedd77b9940e349a4d09b6eec674347642632c116500eedc72b642c"
    "f92286c57ebd0d373acc82285c66161b8cecc0ea2367e32649a9b5b84e2e7ea5"
    "5eb98569";

#endif
