#include "../inc/consts.hlsli"
float3 Lambert(float3 n, float3 l, float3 c) { return c * saturate(dot(n, l)) * GAIN; }
