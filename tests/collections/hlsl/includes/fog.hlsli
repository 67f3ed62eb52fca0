float4 Fog(float4 c) { return c * 0.9; }
