; Inno Setup 6 script for Crib Tiles: CribTilesSetup-<version>.exe, installed per user without admin
; rights (in %LOCALAPPDATA%\Programs\Crib Tiles), with start-menu and desktop shortcuts and an
; uninstaller. `python build/build.py` runs it on Windows after PyInstaller, passing the version and paths:
;   ISCC /DAppVersion=0.1.0 /DBundleDir=...\dist\cribtiles /DRootDir=... /DIconFile=...\cribtiles.ico /O...\dist cribtiles.iss

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef RootDir
  #define RootDir AddBackslash(SourcePath) + "..\.."
#endif
#ifndef BundleDir
  #define BundleDir RootDir + "\dist\cribtiles"
#endif
#ifndef IconFile
  #define IconFile RootDir + "\build\scratch\icons\cribtiles.ico"
#endif

[Setup]
; the AppId names the program to Windows across versions: never change it
AppId={{6F2B8E4C-1D7A-4B9E-A35C-8C0E2F7D9B41}
AppName=Crib Tiles
AppVersion={#AppVersion}
AppVerName=Crib Tiles {#AppVersion}
AppPublisher=The Crib Tiles team
PrivilegesRequired=lowest
DefaultDirName={autopf}\Crib Tiles
DefaultGroupName=Crib Tiles
DisableProgramGroupPage=yes
LicenseFile={#RootDir}\LICENSE
SetupIconFile={#IconFile}
UninstallDisplayIcon={app}\cribtiles.exe
UninstallDisplayName=Crib Tiles
OutputDir={#RootDir}\dist
OutputBaseFilename=CribTilesSetup-{#AppVersion}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Crib Tiles"; Filename: "{app}\cribtiles.exe"
Name: "{autodesktop}\Crib Tiles"; Filename: "{app}\cribtiles.exe"; Tasks: desktopicon

[Registry]
; the cribtiles:// URL protocol of an invitation's "Open in Crib Tiles", for this user (HKA is HKCU in a
; per-user install): Windows runs `cribtiles.exe "cribtiles://HOST:PORT/t/CODE"`, which seats the window there
Root: HKA; Subkey: "Software\Classes\cribtiles"; ValueType: string; ValueName: ""; ValueData: "URL:Crib Tiles invitation"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\cribtiles"; ValueType: string; ValueName: "URL Protocol"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\cribtiles\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\cribtiles.exe,0"
Root: HKA; Subkey: "Software\Classes\cribtiles\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\cribtiles.exe"" ""%1"""

[Run]
Filename: "{app}\cribtiles.exe"; Description: "{cm:LaunchProgram,Crib Tiles}"; Flags: nowait postinstall skipifsilent
