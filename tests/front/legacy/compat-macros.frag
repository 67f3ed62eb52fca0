// a RetroArch-style source: "texture" behind a macro is the function
#if __VERSION__ >= 130
#define COMPAT_TEXTURE texture
out vec4 FragColor;
#else
#define COMPAT_TEXTURE texture2D
#define FragColor gl_FragColor
#endif
uniform sampler2D Texture;
varying vec2 uv;
void main()
{
	FragColor = COMPAT_TEXTURE(Texture, uv);
}
